-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
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
    "closedAt" DATETIME
);
INSERT INTO "new_GatewaySession" ("applicationId", "botUserId", "closedAt", "createdAt", "id", "intents", "largeThreshold", "lastSeenAt", "messageContent", "shardCount", "shardId") SELECT "applicationId", "botUserId", "closedAt", "createdAt", "id", "intents", "largeThreshold", "lastSeenAt", "messageContent", "shardCount", "shardId" FROM "GatewaySession";
DROP TABLE "GatewaySession";
ALTER TABLE "new_GatewaySession" RENAME TO "GatewaySession";
CREATE INDEX "GatewaySession_closedAt_idx" ON "GatewaySession"("closedAt");
CREATE INDEX "GatewaySession_lastSeenAt_idx" ON "GatewaySession"("lastSeenAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
