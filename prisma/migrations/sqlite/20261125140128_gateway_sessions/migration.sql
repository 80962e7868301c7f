-- CreateTable
CREATE TABLE "GatewaySession" (
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
    "closedAt" DATETIME
);

-- CreateTable
CREATE TABLE "GatewaySessionBudget" (
    "applicationId" TEXT NOT NULL PRIMARY KEY,
    "windowStart" DATETIME NOT NULL,
    "used" INTEGER NOT NULL
);

-- CreateTable
CREATE TABLE "GatewayIdentifySlot" (
    "applicationId" TEXT NOT NULL,
    "rateLimitKey" INTEGER NOT NULL,
    "lastAt" DATETIME NOT NULL,

    PRIMARY KEY ("applicationId", "rateLimitKey")
);

-- CreateIndex
CREATE INDEX "GatewaySession_closedAt_idx" ON "GatewaySession"("closedAt");

-- CreateIndex
CREATE INDEX "GatewaySession_lastSeenAt_idx" ON "GatewaySession"("lastSeenAt");
