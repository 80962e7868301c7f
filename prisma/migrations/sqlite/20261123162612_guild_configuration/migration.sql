-- CreateTable
CREATE TABLE "ThreadMember" (
    "threadId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "joinTimestamp" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "flags" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("threadId", "userId"),
    CONSTRAINT "ThreadMember_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Integration" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "accountId" TEXT NOT NULL,
    "accountName" TEXT NOT NULL,
    "applicationId" TEXT,
    "userId" TEXT,
    "scopes" TEXT NOT NULL DEFAULT '',
    "syncing" BOOLEAN,
    "roleId" TEXT,
    "enableEmoticons" BOOLEAN,
    "expireBehavior" INTEGER,
    "expireGracePeriod" INTEGER,
    "subscriberCount" INTEGER,
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "syncedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Integration_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Connection" (
    "userId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL DEFAULT true,
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "visibility" INTEGER NOT NULL DEFAULT 0,
    "friendSync" BOOLEAN NOT NULL DEFAULT false,
    "showActivity" BOOLEAN NOT NULL DEFAULT true,
    "twoWayLink" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("userId", "type", "id"),
    CONSTRAINT "Connection_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Channel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT,
    "type" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "topic" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "parentId" TEXT,
    "nsfw" BOOLEAN NOT NULL DEFAULT false,
    "bitrate" INTEGER,
    "userLimit" INTEGER,
    "rateLimitPerUser" INTEGER,
    "rtcRegion" TEXT,
    "videoQualityMode" INTEGER,
    "defaultAutoArchiveDuration" INTEGER,
    "defaultReactionEmoji" TEXT,
    "availableTags" TEXT,
    "defaultSortOrder" INTEGER,
    "defaultForumLayout" INTEGER,
    "defaultThreadRateLimitPerUser" INTEGER,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "lastMessageId" TEXT,
    "voiceStatus" TEXT,
    "ownerId" TEXT,
    "threadArchived" BOOLEAN,
    "threadAutoArchiveDuration" INTEGER,
    "threadArchiveTimestamp" DATETIME,
    "threadLocked" BOOLEAN,
    "threadInvitable" BOOLEAN,
    "messageCount" INTEGER NOT NULL DEFAULT 0,
    "totalMessageSent" INTEGER NOT NULL DEFAULT 0,
    "appliedTags" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Channel_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Channel" ("availableTags", "bitrate", "createdAt", "defaultAutoArchiveDuration", "defaultForumLayout", "defaultReactionEmoji", "defaultSortOrder", "defaultThreadRateLimitPerUser", "flags", "guildId", "id", "lastMessageId", "name", "nsfw", "parentId", "position", "rateLimitPerUser", "rtcRegion", "topic", "type", "userLimit", "videoQualityMode") SELECT "availableTags", "bitrate", "createdAt", "defaultAutoArchiveDuration", "defaultForumLayout", "defaultReactionEmoji", "defaultSortOrder", "defaultThreadRateLimitPerUser", "flags", "guildId", "id", "lastMessageId", "name", "nsfw", "parentId", "position", "rateLimitPerUser", "rtcRegion", "topic", "type", "userLimit", "videoQualityMode" FROM "Channel";
DROP TABLE "Channel";
ALTER TABLE "new_Channel" RENAME TO "Channel";
CREATE INDEX "Channel_guildId_idx" ON "Channel"("guildId");
CREATE INDEX "Channel_parentId_idx" ON "Channel"("parentId");
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
    "onboardingEnabled" BOOLEAN NOT NULL DEFAULT false,
    "onboardingMode" INTEGER NOT NULL DEFAULT 0,
    "onboardingDefaultChannelIds" TEXT NOT NULL DEFAULT '[]',
    "onboardingPrompts" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Guild_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Guild_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Guild" ("afkChannelId", "afkTimeout", "applicationId", "banner", "createdAt", "defaultMessageNotifications", "description", "discoverySplash", "dmsDisabledUntil", "explicitContentFilter", "features", "icon", "id", "invitesDisabledUntil", "maxMembers", "maxStageVideoChannelUsers", "maxVideoChannelUsers", "mfaLevel", "name", "nsfwLevel", "ownerId", "preferredLocale", "premiumProgressBarEnabled", "premiumSubscriptionCount", "premiumTier", "publicUpdatesChannelId", "region", "rulesChannelId", "safetyAlertsChannelId", "splash", "systemChannelFlags", "systemChannelId", "vanityUrlCode", "vanityUses", "verificationLevel", "welcomeChannels", "welcomeDescription", "widgetChannelId", "widgetEnabled") SELECT "afkChannelId", "afkTimeout", "applicationId", "banner", "createdAt", "defaultMessageNotifications", "description", "discoverySplash", "dmsDisabledUntil", "explicitContentFilter", "features", "icon", "id", "invitesDisabledUntil", "maxMembers", "maxStageVideoChannelUsers", "maxVideoChannelUsers", "mfaLevel", "name", "nsfwLevel", "ownerId", "preferredLocale", "premiumProgressBarEnabled", "premiumSubscriptionCount", "premiumTier", "publicUpdatesChannelId", "region", "rulesChannelId", "safetyAlertsChannelId", "splash", "systemChannelFlags", "systemChannelId", "vanityUrlCode", "vanityUses", "verificationLevel", "welcomeChannels", "welcomeDescription", "widgetChannelId", "widgetEnabled" FROM "Guild";
DROP TABLE "Guild";
ALTER TABLE "new_Guild" RENAME TO "Guild";
CREATE UNIQUE INDEX "Guild_vanityUrlCode_key" ON "Guild"("vanityUrlCode");
CREATE INDEX "Guild_ownerId_idx" ON "Guild"("ownerId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ThreadMember_userId_idx" ON "ThreadMember"("userId");

-- CreateIndex
CREATE INDEX "Integration_guildId_idx" ON "Integration"("guildId");

-- CreateIndex
CREATE UNIQUE INDEX "Integration_guildId_applicationId_key" ON "Integration"("guildId", "applicationId");
