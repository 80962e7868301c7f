-- AlterTable
ALTER TABLE "Lobby" ADD COLUMN "linkedById" TEXT;
