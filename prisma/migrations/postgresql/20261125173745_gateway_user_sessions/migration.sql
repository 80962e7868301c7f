-- AlterTable
ALTER TABLE "GatewaySession" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'bot';
