-- AlterTable
ALTER TABLE "Guild" ADD COLUMN     "vanityUses" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Member" ADD COLUMN     "temporary" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "Invite" (
    "code" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "inviterId" TEXT,
    "maxAge" INTEGER NOT NULL DEFAULT 86400,
    "maxUses" INTEGER NOT NULL DEFAULT 0,
    "uses" INTEGER NOT NULL DEFAULT 0,
    "temporary" BOOLEAN NOT NULL DEFAULT false,
    "targetType" INTEGER,
    "targetUserId" TEXT,
    "targetApplicationId" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "roleIds" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "Invite_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "InviteTargetUser" (
    "code" TEXT NOT NULL,
    "userId" TEXT NOT NULL,

    CONSTRAINT "InviteTargetUser_pkey" PRIMARY KEY ("code","userId")
);

-- CreateTable
CREATE TABLE "TargetUsersJob" (
    "code" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "totalUsers" INTEGER NOT NULL,
    "processedUsers" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),
    "errorMessage" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "TargetUsersJob_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "TargetUsersJobChunk" (
    "code" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "TargetUsersJobChunk_pkey" PRIMARY KEY ("code","index")
);

-- CreateTable
CREATE TABLE "ScheduledEvent" (
    "id" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT,
    "creatorId" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "scheduledStartTime" TIMESTAMP(3) NOT NULL,
    "scheduledEndTime" TIMESTAMP(3),
    "privacyLevel" INTEGER NOT NULL DEFAULT 2,
    "status" INTEGER NOT NULL DEFAULT 1,
    "entityType" INTEGER NOT NULL,
    "location" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScheduledEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Invite_guildId_idx" ON "Invite"("guildId");

-- CreateIndex
CREATE INDEX "Invite_channelId_idx" ON "Invite"("channelId");

-- CreateIndex
CREATE INDEX "Invite_expiresAt_idx" ON "Invite"("expiresAt");

-- CreateIndex
CREATE INDEX "TargetUsersJob_status_leaseUntil_idx" ON "TargetUsersJob"("status", "leaseUntil");

-- CreateIndex
CREATE INDEX "ScheduledEvent_guildId_idx" ON "ScheduledEvent"("guildId");

-- AddForeignKey
ALTER TABLE "Invite" ADD CONSTRAINT "Invite_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invite" ADD CONSTRAINT "Invite_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InviteTargetUser" ADD CONSTRAINT "InviteTargetUser_code_fkey" FOREIGN KEY ("code") REFERENCES "Invite"("code") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TargetUsersJob" ADD CONSTRAINT "TargetUsersJob_code_fkey" FOREIGN KEY ("code") REFERENCES "Invite"("code") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TargetUsersJobChunk" ADD CONSTRAINT "TargetUsersJobChunk_code_fkey" FOREIGN KEY ("code") REFERENCES "TargetUsersJob"("code") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScheduledEvent" ADD CONSTRAINT "ScheduledEvent_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild"("id") ON DELETE CASCADE ON UPDATE CASCADE;
