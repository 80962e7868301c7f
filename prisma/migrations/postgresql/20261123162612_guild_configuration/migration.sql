-- AlterTable
ALTER TABLE "Channel" ADD COLUMN     "appliedTags" TEXT,
ADD COLUMN     "messageCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "ownerId" TEXT,
ADD COLUMN     "threadArchiveTimestamp" TIMESTAMP(3),
ADD COLUMN     "threadArchived" BOOLEAN,
ADD COLUMN     "threadAutoArchiveDuration" INTEGER,
ADD COLUMN     "threadInvitable" BOOLEAN,
ADD COLUMN     "threadLocked" BOOLEAN,
ADD COLUMN     "totalMessageSent" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "voiceStatus" TEXT;

-- AlterTable
ALTER TABLE "Guild" ADD COLUMN     "onboardingDefaultChannelIds" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "onboardingEnabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "onboardingMode" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "onboardingPrompts" TEXT NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "ThreadMember" (
    "threadId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "joinTimestamp" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "flags" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ThreadMember_pkey" PRIMARY KEY ("threadId","userId")
);

-- CreateTable
CREATE TABLE "Integration" (
    "id" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "accountId" TEXT NOT NULL,
    "accountName" TEXT NOT NULL,
    "applicationId" TEXT,
    "userId" TEXT,
    "scopes" TEXT NOT NULL DEFAULT '',
    "syncing" BOOLEAN,
    "roleId" TEXT,
    "enableEmoticons" BOOLEAN,
    "expireBehavior" INTEGER,
    "expireGracePeriod" INTEGER,
    "subscriberCount" INTEGER,
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "syncedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Integration_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Connection" (
    "userId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL DEFAULT true,
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "visibility" INTEGER NOT NULL DEFAULT 0,
    "friendSync" BOOLEAN NOT NULL DEFAULT false,
    "showActivity" BOOLEAN NOT NULL DEFAULT true,
    "twoWayLink" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Connection_pkey" PRIMARY KEY ("userId","type","id")
);

-- CreateIndex
CREATE INDEX "ThreadMember_userId_idx" ON "ThreadMember"("userId");

-- CreateIndex
CREATE INDEX "Integration_guildId_idx" ON "Integration"("guildId");

-- CreateIndex
CREATE UNIQUE INDEX "Integration_guildId_applicationId_key" ON "Integration"("guildId", "applicationId");

-- CreateIndex
CREATE INDEX "Channel_parentId_idx" ON "Channel"("parentId");

-- AddForeignKey
ALTER TABLE "ThreadMember" ADD CONSTRAINT "ThreadMember_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Integration" ADD CONSTRAINT "Integration_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Connection" ADD CONSTRAINT "Connection_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
