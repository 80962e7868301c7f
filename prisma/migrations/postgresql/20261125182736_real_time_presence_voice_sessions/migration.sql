-- AlterTable
ALTER TABLE "Application" ADD COLUMN     "channelObfuscation" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Channel" ADD COLUMN     "threadActiveAt" TIMESTAMP(3),
ADD COLUMN     "voiceStartTime" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "GatewaySession" ADD COLUMN     "channelObfuscation" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'bot';

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "profilePrivacy" TEXT NOT NULL DEFAULT 'everyone';

-- AlterTable
ALTER TABLE "VoiceState" ADD COLUMN     "gatewaySessionId" TEXT;

-- CreateTable
CREATE TABLE "Presence" (
    "sessionId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "activities" TEXT NOT NULL DEFAULT '[]',
    "since" BIGINT,
    "afk" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Presence_pkey" PRIMARY KEY ("sessionId")
);

-- CreateIndex
CREATE INDEX "Presence_userId_updatedAt_idx" ON "Presence"("userId", "updatedAt");

-- CreateIndex
CREATE INDEX "Channel_threadArchived_threadActiveAt_idx" ON "Channel"("threadArchived", "threadActiveAt");

-- CreateIndex
CREATE INDEX "VoiceState_gatewaySessionId_idx" ON "VoiceState"("gatewaySessionId");

-- AddForeignKey
ALTER TABLE "Presence" ADD CONSTRAINT "Presence_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "GatewaySession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Presence" ADD CONSTRAINT "Presence_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Open threads start their inactivity clock now, so none archives at once after the upgrade.
UPDATE "Channel" SET "threadActiveAt" = CURRENT_TIMESTAMP WHERE "threadArchived" = false;
