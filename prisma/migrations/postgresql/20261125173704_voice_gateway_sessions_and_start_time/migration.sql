-- AlterTable
ALTER TABLE "Channel" ADD COLUMN     "voiceStartTime" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "VoiceState" ADD COLUMN     "gatewaySessionId" TEXT;

-- CreateIndex
CREATE INDEX "VoiceState_gatewaySessionId_idx" ON "VoiceState"("gatewaySessionId");
