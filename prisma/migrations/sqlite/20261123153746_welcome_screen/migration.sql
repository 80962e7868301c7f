-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Guild" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "icon" TEXT,
    "splash" TEXT,
    "discoverySplash" TEXT,
    "banner" TEXT,
    "description" TEXT,
    "ownerId" TEXT NOT NULL,
    "applicationId" TEXT,
    "region" TEXT,
    "afkChannelId" TEXT,
    "afkTimeout" INTEGER NOT NULL DEFAULT 300,
    "widgetEnabled" BOOLEAN NOT NULL DEFAULT false,
    "widgetChannelId" TEXT,
    "verificationLevel" INTEGER NOT NULL DEFAULT 0,
    "defaultMessageNotifications" INTEGER NOT NULL DEFAULT 0,
    "explicitContentFilter" INTEGER NOT NULL DEFAULT 0,
    "features" TEXT NOT NULL DEFAULT '[]',
    "mfaLevel" INTEGER NOT NULL DEFAULT 0,
    "systemChannelId" TEXT,
    "systemChannelFlags" INTEGER NOT NULL DEFAULT 0,
    "rulesChannelId" TEXT,
    "publicUpdatesChannelId" TEXT,
    "safetyAlertsChannelId" TEXT,
    "maxMembers" INTEGER NOT NULL DEFAULT 500000,
    "vanityUrlCode" TEXT,
    "premiumTier" INTEGER NOT NULL DEFAULT 0,
    "premiumSubscriptionCount" INTEGER NOT NULL DEFAULT 0,
    "preferredLocale" TEXT NOT NULL DEFAULT 'en-US',
    "nsfwLevel" INTEGER NOT NULL DEFAULT 0,
    "premiumProgressBarEnabled" BOOLEAN NOT NULL DEFAULT false,
    "maxVideoChannelUsers" INTEGER NOT NULL DEFAULT 25,
    "maxStageVideoChannelUsers" INTEGER NOT NULL DEFAULT 50,
    "vanityUses" INTEGER NOT NULL DEFAULT 0,
    "welcomeDescription" TEXT,
    "welcomeChannels" TEXT NOT NULL DEFAULT '[]',
    "invitesDisabledUntil" DATETIME,
    "dmsDisabledUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Guild_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Guild_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Guild" ("afkChannelId", "afkTimeout", "applicationId", "banner", "createdAt", "defaultMessageNotifications", "description", "discoverySplash", "dmsDisabledUntil", "explicitContentFilter", "features", "icon", "id", "invitesDisabledUntil", "maxMembers", "maxStageVideoChannelUsers", "maxVideoChannelUsers", "mfaLevel", "name", "nsfwLevel", "ownerId", "preferredLocale", "premiumProgressBarEnabled", "premiumSubscriptionCount", "premiumTier", "publicUpdatesChannelId", "region", "rulesChannelId", "safetyAlertsChannelId", "splash", "systemChannelFlags", "systemChannelId", "vanityUrlCode", "vanityUses", "verificationLevel", "widgetChannelId", "widgetEnabled") SELECT "afkChannelId", "afkTimeout", "applicationId", "banner", "createdAt", "defaultMessageNotifications", "description", "discoverySplash", "dmsDisabledUntil", "explicitContentFilter", "features", "icon", "id", "invitesDisabledUntil", "maxMembers", "maxStageVideoChannelUsers", "maxVideoChannelUsers", "mfaLevel", "name", "nsfwLevel", "ownerId", "preferredLocale", "premiumProgressBarEnabled", "premiumSubscriptionCount", "premiumTier", "publicUpdatesChannelId", "region", "rulesChannelId", "safetyAlertsChannelId", "splash", "systemChannelFlags", "systemChannelId", "vanityUrlCode", "vanityUses", "verificationLevel", "widgetChannelId", "widgetEnabled" FROM "Guild";
DROP TABLE "Guild";
ALTER TABLE "new_Guild" RENAME TO "Guild";
CREATE UNIQUE INDEX "Guild_vanityUrlCode_key" ON "Guild"("vanityUrlCode");
CREATE INDEX "Guild_ownerId_idx" ON "Guild"("ownerId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
