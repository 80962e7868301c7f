-- CreateTable
CREATE TABLE "GatewaySession" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "botUserId" TEXT NOT NULL,
    "intents" INTEGER NOT NULL,
    "shardId" INTEGER NOT NULL,
    "shardCount" INTEGER NOT NULL,
    "largeThreshold" INTEGER NOT NULL,
    "messageContent" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMP(3),

    CONSTRAINT "GatewaySession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewaySessionBudget" (
    "applicationId" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "used" INTEGER NOT NULL,

    CONSTRAINT "GatewaySessionBudget_pkey" PRIMARY KEY ("applicationId")
);

-- CreateTable
CREATE TABLE "GatewayIdentifySlot" (
    "applicationId" TEXT NOT NULL,
    "rateLimitKey" INTEGER NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GatewayIdentifySlot_pkey" PRIMARY KEY ("applicationId","rateLimitKey")
);

-- CreateIndex
CREATE INDEX "GatewaySession_closedAt_idx" ON "GatewaySession"("closedAt");

-- CreateIndex
CREATE INDEX "GatewaySession_lastSeenAt_idx" ON "GatewaySession"("lastSeenAt");
