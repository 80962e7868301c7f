-- AlterTable
ALTER TABLE "User" ADD COLUMN     "profilePrivacy" TEXT NOT NULL DEFAULT 'everyone';

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

-- AddForeignKey
ALTER TABLE "Presence" ADD CONSTRAINT "Presence_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "GatewaySession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Presence" ADD CONSTRAINT "Presence_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
