-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "username" TEXT NOT NULL,
    "globalName" TEXT,
    "avatar" TEXT,
    "bot" BOOLEAN NOT NULL DEFAULT false,
    "system" BOOLEAN NOT NULL DEFAULT false,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "email" TEXT,
    "passwordHash" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ExternalAccount" (
    "provider" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" TEXT NOT NULL,

    PRIMARY KEY ("provider", "subject"),
    CONSTRAINT "ExternalAccount_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Application" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "icon" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "maxConcurrency" INTEGER NOT NULL DEFAULT 1,
    "ownerId" TEXT NOT NULL,
    "botUserId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Application_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Application_botUserId_fkey" FOREIGN KEY ("botUserId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Token" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "applicationId" TEXT,
    "scopes" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "Token_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Token_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Guild" (
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
    "invitesDisabledUntil" DATETIME,
    "dmsDisabledUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Guild_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Guild_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Role" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "permissions" BIGINT NOT NULL DEFAULT 0,
    "color" INTEGER NOT NULL DEFAULT 0,
    "secondaryColor" INTEGER,
    "tertiaryColor" INTEGER,
    "hoist" BOOLEAN NOT NULL DEFAULT false,
    "icon" TEXT,
    "unicodeEmoji" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "managed" BOOLEAN NOT NULL DEFAULT false,
    "mentionable" BOOLEAN NOT NULL DEFAULT false,
    "flags" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "Role_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Channel" (
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Channel_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PermissionOverwrite" (
    "channelId" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "type" INTEGER NOT NULL,
    "allow" BIGINT NOT NULL DEFAULT 0,
    "deny" BIGINT NOT NULL DEFAULT 0,

    PRIMARY KEY ("channelId", "targetId"),
    CONSTRAINT "PermissionOverwrite_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Member" (
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

    PRIMARY KEY ("guildId", "userId"),
    CONSTRAINT "Member_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Member_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "MemberRole" (
    "guildId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "roleId" TEXT NOT NULL,

    PRIMARY KEY ("guildId", "userId", "roleId"),
    CONSTRAINT "MemberRole_guildId_userId_fkey" FOREIGN KEY ("guildId", "userId") REFERENCES "Member" ("guildId", "userId") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "MemberRole_roleId_fkey" FOREIGN KEY ("roleId") REFERENCES "Role" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AuditLogEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "userId" TEXT,
    "actionType" INTEGER NOT NULL,
    "targetId" TEXT,
    "changes" TEXT,
    "options" TEXT,
    "reason" TEXT,
    CONSTRAINT "AuditLogEntry_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Event" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" TEXT NOT NULL,
    "guildId" TEXT,
    "data" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Image" (
    "path" TEXT NOT NULL PRIMARY KEY,
    "contentType" TEXT NOT NULL,
    "data" BLOB NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "User_username_idx" ON "User"("username");

-- CreateIndex
CREATE INDEX "ExternalAccount_userId_idx" ON "ExternalAccount"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Application_botUserId_key" ON "Application"("botUserId");

-- CreateIndex
CREATE INDEX "Application_ownerId_idx" ON "Application"("ownerId");

-- CreateIndex
CREATE INDEX "Token_userId_idx" ON "Token"("userId");

-- CreateIndex
CREATE INDEX "Token_applicationId_idx" ON "Token"("applicationId");

-- CreateIndex
CREATE UNIQUE INDEX "Guild_vanityUrlCode_key" ON "Guild"("vanityUrlCode");

-- CreateIndex
CREATE INDEX "Guild_ownerId_idx" ON "Guild"("ownerId");

-- CreateIndex
CREATE INDEX "Role_guildId_idx" ON "Role"("guildId");

-- CreateIndex
CREATE INDEX "Channel_guildId_idx" ON "Channel"("guildId");

-- CreateIndex
CREATE INDEX "Member_userId_idx" ON "Member"("userId");

-- CreateIndex
CREATE INDEX "MemberRole_roleId_idx" ON "MemberRole"("roleId");

-- CreateIndex
CREATE INDEX "AuditLogEntry_guildId_id_idx" ON "AuditLogEntry"("guildId", "id");

-- CreateIndex
CREATE INDEX "Event_guildId_seq_idx" ON "Event"("guildId", "seq");
