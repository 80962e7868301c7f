-- AlterTable
ALTER TABLE "Channel" ADD COLUMN "threadActiveAt" DATETIME;

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
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Channel_threadArchived_threadActiveAt_idx" ON "Channel"("threadArchived", "threadActiveAt");


-- Threads open before activity was recorded count from now: none archives sooner than its duration.
UPDATE "Channel" SET "threadActiveAt" = CURRENT_TIMESTAMP WHERE "threadArchived" = false;
