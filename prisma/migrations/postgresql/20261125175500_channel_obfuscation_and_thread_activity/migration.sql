-- AlterTable
ALTER TABLE "Application" ADD COLUMN     "channelObfuscation" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Channel" ADD COLUMN     "threadActiveAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "GatewaySession" ADD COLUMN     "channelObfuscation" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Channel_threadArchived_threadActiveAt_idx" ON "Channel"("threadArchived", "threadActiveAt");

-- Threads open before activity was recorded count from now: none archives sooner than its duration.
UPDATE "Channel" SET "threadActiveAt" = CURRENT_TIMESTAMP WHERE "threadArchived" = false;
