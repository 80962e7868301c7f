-- AlterTable
ALTER TABLE "Role" ADD COLUMN     "botId" TEXT;
