-- CreateTable
CREATE TABLE "Invite" (
    "code" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "inviterId" TEXT,
    "maxAge" INTEGER NOT NULL DEFAULT 86400,
    "maxUses" INTEGER NOT NULL DEFAULT 0,
    "uses" INTEGER NOT NULL DEFAULT 0,
    "temporary" BOOLEAN NOT NULL DEFAULT false,
    "targetType" INTEGER,
    "targetUserId" TEXT,
    "targetApplicationId" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "roleIds" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME,
    CONSTRAINT "Invite_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Invite_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "InviteTargetUser" (
    "code" TEXT NOT NULL,
    "userId" TEXT NOT NULL,

    PRIMARY KEY ("code", "userId"),
    CONSTRAINT "InviteTargetUser_code_fkey" FOREIGN KEY ("code") REFERENCES "Invite" ("code") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TargetUsersJob" (
    "code" TEXT NOT NULL PRIMARY KEY,
    "status" INTEGER NOT NULL,
    "totalUsers" INTEGER NOT NULL,
    "processedUsers" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" DATETIME,
    "errorMessage" TEXT,
    "leaseUntil" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "TargetUsersJob_code_fkey" FOREIGN KEY ("code") REFERENCES "Invite" ("code") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TargetUsersJobChunk" (
    "code" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "data" BLOB NOT NULL,

    PRIMARY KEY ("code", "index"),
    CONSTRAINT "TargetUsersJobChunk_code_fkey" FOREIGN KEY ("code") REFERENCES "TargetUsersJob" ("code") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ScheduledEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT,
    "creatorId" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "scheduledStartTime" DATETIME NOT NULL,
    "scheduledEndTime" DATETIME,
    "privacyLevel" INTEGER NOT NULL DEFAULT 2,
    "status" INTEGER NOT NULL DEFAULT 1,
    "entityType" INTEGER NOT NULL,
    "location" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ScheduledEvent_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

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
    "invitesDisabledUntil" DATETIME,
    "dmsDisabledUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Guild_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Guild_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Guild" ("afkChannelId", "afkTimeout", "applicationId", "banner", "createdAt", "defaultMessageNotifications", "description", "discoverySplash", "dmsDisabledUntil", "explicitContentFilter", "features", "icon", "id", "invitesDisabledUntil", "maxMembers", "maxStageVideoChannelUsers", "maxVideoChannelUsers", "mfaLevel", "name", "nsfwLevel", "ownerId", "preferredLocale", "premiumProgressBarEnabled", "premiumSubscriptionCount", "premiumTier", "publicUpdatesChannelId", "region", "rulesChannelId", "safetyAlertsChannelId", "splash", "systemChannelFlags", "systemChannelId", "vanityUrlCode", "verificationLevel", "widgetChannelId", "widgetEnabled") SELECT "afkChannelId", "afkTimeout", "applicationId", "banner", "createdAt", "defaultMessageNotifications", "description", "discoverySplash", "dmsDisabledUntil", "explicitContentFilter", "features", "icon", "id", "invitesDisabledUntil", "maxMembers", "maxStageVideoChannelUsers", "maxVideoChannelUsers", "mfaLevel", "name", "nsfwLevel", "ownerId", "preferredLocale", "premiumProgressBarEnabled", "premiumSubscriptionCount", "premiumTier", "publicUpdatesChannelId", "region", "rulesChannelId", "safetyAlertsChannelId", "splash", "systemChannelFlags", "systemChannelId", "vanityUrlCode", "verificationLevel", "widgetChannelId", "widgetEnabled" FROM "Guild";
DROP TABLE "Guild";
ALTER TABLE "new_Guild" RENAME TO "Guild";
CREATE UNIQUE INDEX "Guild_vanityUrlCode_key" ON "Guild"("vanityUrlCode");
CREATE INDEX "Guild_ownerId_idx" ON "Guild"("ownerId");
CREATE TABLE "new_Member" (
    "guildId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "nick" TEXT,
    "avatar" TEXT,
    "banner" TEXT,
    "joinedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "premiumSince" DATETIME,
    "deaf" BOOLEAN NOT NULL DEFAULT false,
    "mute" BOOLEAN NOT NULL DEFAULT false,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "pending" BOOLEAN NOT NULL DEFAULT false,
    "communicationDisabledUntil" DATETIME,
    "bio" TEXT,
    "temporary" BOOLEAN NOT NULL DEFAULT false,

    PRIMARY KEY ("guildId", "userId"),
    CONSTRAINT "Member_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Member_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Member" ("avatar", "banner", "bio", "communicationDisabledUntil", "deaf", "flags", "guildId", "joinedAt", "mute", "nick", "pending", "premiumSince", "userId") SELECT "avatar", "banner", "bio", "communicationDisabledUntil", "deaf", "flags", "guildId", "joinedAt", "mute", "nick", "pending", "premiumSince", "userId" FROM "Member";
DROP TABLE "Member";
ALTER TABLE "new_Member" RENAME TO "Member";
CREATE INDEX "Member_userId_idx" ON "Member"("userId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Invite_guildId_idx" ON "Invite"("guildId");

-- CreateIndex
CREATE INDEX "Invite_channelId_idx" ON "Invite"("channelId");

-- CreateIndex
CREATE INDEX "Invite_expiresAt_idx" ON "Invite"("expiresAt");

-- CreateIndex
CREATE INDEX "TargetUsersJob_status_leaseUntil_idx" ON "TargetUsersJob"("status", "leaseUntil");

-- CreateIndex
CREATE INDEX "ScheduledEvent_guildId_idx" ON "ScheduledEvent"("guildId");
