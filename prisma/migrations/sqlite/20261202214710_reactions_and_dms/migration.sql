-- AlterTable
ALTER TABLE "Channel" ADD COLUMN "dmKey" TEXT;

-- CreateTable
CREATE TABLE "ChannelRecipient" (
    "channelId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,

    PRIMARY KEY ("channelId", "userId"),
    CONSTRAINT "ChannelRecipient_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Reaction" (
    "messageId" TEXT NOT NULL,
    "emojiKey" TEXT NOT NULL,
    "emojiId" TEXT,
    "emojiName" TEXT NOT NULL,
    "animated" BOOLEAN NOT NULL DEFAULT false,
    "userId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("messageId", "emojiKey", "userId"),
    CONSTRAINT "Reaction_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Member" (
    "guildId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "nick" TEXT,
    "avatar" TEXT,
    "banner" TEXT,
    "joinedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "premiumSince" DATETIME,
    "deaf" BOOLEAN NOT NULL DEFAULT false,
    "mute" BOOLEAN NOT NULL DEFAULT false,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "pending" BOOLEAN NOT NULL DEFAULT false,
    "communicationDisabledUntil" DATETIME,
    "bio" TEXT,
    "temporary" BOOLEAN NOT NULL DEFAULT false,
    "allowDms" BOOLEAN NOT NULL DEFAULT true,

    PRIMARY KEY ("guildId", "userId"),
    CONSTRAINT "Member_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Member_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Member" ("avatar", "banner", "bio", "communicationDisabledUntil", "deaf", "flags", "guildId", "joinedAt", "mute", "nick", "pending", "premiumSince", "temporary", "userId") SELECT "avatar", "banner", "bio", "communicationDisabledUntil", "deaf", "flags", "guildId", "joinedAt", "mute", "nick", "pending", "premiumSince", "temporary", "userId" FROM "Member";
DROP TABLE "Member";
ALTER TABLE "new_Member" RENAME TO "Member";
CREATE INDEX "Member_userId_idx" ON "Member"("userId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ChannelRecipient_userId_idx" ON "ChannelRecipient"("userId");

-- CreateIndex
CREATE INDEX "Reaction_messageId_createdAt_idx" ON "Reaction"("messageId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Channel_dmKey_key" ON "Channel"("dmKey");
