-- AlterTable
ALTER TABLE "Channel" ADD COLUMN "threadActiveAt" DATETIME;
ALTER TABLE "Channel" ADD COLUMN "voiceStartTime" DATETIME;

-- AlterTable
ALTER TABLE "VoiceState" ADD COLUMN "gatewaySessionId" TEXT;

-- CreateTable
CREATE TABLE "Presence" (
    "sessionId" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "activities" TEXT NOT NULL DEFAULT '[]',
    "since" BIGINT,
    "afk" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Presence_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "GatewaySession" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Presence_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Application" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "icon" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "maxConcurrency" INTEGER NOT NULL DEFAULT 1,
    "rateLimitsLifted" BOOLEAN NOT NULL DEFAULT false,
    "ownerId" TEXT NOT NULL,
    "botUserId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "channelObfuscation" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Application_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Application_botUserId_fkey" FOREIGN KEY ("botUserId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Application" ("botUserId", "createdAt", "description", "flags", "icon", "id", "maxConcurrency", "name", "ownerId", "rateLimitsLifted") SELECT "botUserId", "createdAt", "description", "flags", "icon", "id", "maxConcurrency", "name", "ownerId", "rateLimitsLifted" FROM "Application";
DROP TABLE "Application";
ALTER TABLE "new_Application" RENAME TO "Application";
CREATE UNIQUE INDEX "Application_botUserId_key" ON "Application"("botUserId");
CREATE INDEX "Application_ownerId_idx" ON "Application"("ownerId");
CREATE TABLE "new_GatewaySession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "applicationId" TEXT NOT NULL,
    "botUserId" TEXT NOT NULL,
    "intents" INTEGER NOT NULL,
    "shardId" INTEGER NOT NULL,
    "shardCount" INTEGER NOT NULL,
    "largeThreshold" INTEGER NOT NULL,
    "messageContent" BOOLEAN NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'bot',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" DATETIME,
    "channelObfuscation" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_GatewaySession" ("applicationId", "botUserId", "closedAt", "createdAt", "id", "intents", "largeThreshold", "lastSeenAt", "messageContent", "shardCount", "shardId") SELECT "applicationId", "botUserId", "closedAt", "createdAt", "id", "intents", "largeThreshold", "lastSeenAt", "messageContent", "shardCount", "shardId" FROM "GatewaySession";
DROP TABLE "GatewaySession";
ALTER TABLE "new_GatewaySession" RENAME TO "GatewaySession";
CREATE INDEX "GatewaySession_closedAt_idx" ON "GatewaySession"("closedAt");
CREATE INDEX "GatewaySession_lastSeenAt_idx" ON "GatewaySession"("lastSeenAt");
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "username" TEXT NOT NULL,
    "globalName" TEXT,
    "avatar" TEXT,
    "bot" BOOLEAN NOT NULL DEFAULT false,
    "system" BOOLEAN NOT NULL DEFAULT false,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "email" TEXT,
    "passwordHash" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastActiveAt" DATETIME,
    "profilePrivacy" TEXT NOT NULL DEFAULT 'everyone'
);
INSERT INTO "new_User" ("avatar", "bot", "createdAt", "email", "flags", "globalName", "id", "lastActiveAt", "passwordHash", "system", "username") SELECT "avatar", "bot", "createdAt", "email", "flags", "globalName", "id", "lastActiveAt", "passwordHash", "system", "username" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE INDEX "User_username_idx" ON "User"("username");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Presence_userId_updatedAt_idx" ON "Presence"("userId", "updatedAt");

-- CreateIndex
CREATE INDEX "Channel_threadArchived_threadActiveAt_idx" ON "Channel"("threadArchived", "threadActiveAt");

-- CreateIndex
CREATE INDEX "VoiceState_gatewaySessionId_idx" ON "VoiceState"("gatewaySessionId");

-- Open threads start their inactivity clock now, so none archives at once after the upgrade.
UPDATE "Channel" SET "threadActiveAt" = CURRENT_TIMESTAMP WHERE "threadArchived" = false;
