-- AlterTable
ALTER TABLE "Message" ADD COLUMN "pinnedAt" DATETIME;
