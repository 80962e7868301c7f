-- AlterTable
ALTER TABLE "GatewaySession" ADD COLUMN     "sequenceMap" TEXT;
