-- AlterTable
ALTER TABLE "Channel" ADD COLUMN "voiceStartTime" DATETIME;

-- AlterTable
ALTER TABLE "VoiceState" ADD COLUMN "gatewaySessionId" TEXT;

-- CreateIndex
CREATE INDEX "VoiceState_gatewaySessionId_idx" ON "VoiceState"("gatewaySessionId");
