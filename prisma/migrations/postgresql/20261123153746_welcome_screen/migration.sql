-- AlterTable
ALTER TABLE "Guild" ADD COLUMN     "welcomeChannels" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "welcomeDescription" TEXT;
