-- CreateTable
CREATE TABLE "Webhook" (
    "id" TEXT NOT NULL,
    "type" INTEGER NOT NULL,
    "guildId" TEXT,
    "channelId" TEXT,
    "userId" TEXT,
    "name" TEXT,
    "avatar" TEXT,
    "token" TEXT,
    "applicationId" TEXT,
    "sourceGuildId" TEXT,
    "sourceChannelId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "guildId" TEXT,
    "authorId" TEXT,
    "webhookId" TEXT,
    "applicationId" TEXT,
    "authorName" TEXT,
    "authorAvatarUrl" TEXT,
    "type" INTEGER NOT NULL DEFAULT 0,
    "content" TEXT NOT NULL DEFAULT '',
    "tts" BOOLEAN NOT NULL DEFAULT false,
    "embeds" TEXT NOT NULL DEFAULT '[]',
    "components" TEXT NOT NULL DEFAULT '[]',
    "flags" INTEGER NOT NULL DEFAULT 0,
    "mentionEveryone" BOOLEAN NOT NULL DEFAULT false,
    "mentions" TEXT NOT NULL DEFAULT '[]',
    "mentionRoles" TEXT NOT NULL DEFAULT '[]',
    "poll" TEXT,
    "reference" TEXT,
    "threadId" TEXT,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "editedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Attachment" (
    "id" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "filename" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT,
    "contentType" TEXT,
    "size" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "path" TEXT NOT NULL,

    CONSTRAINT "Attachment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Webhook_guildId_idx" ON "Webhook"("guildId");

-- CreateIndex
CREATE INDEX "Webhook_channelId_idx" ON "Webhook"("channelId");

-- CreateIndex
CREATE INDEX "Webhook_applicationId_idx" ON "Webhook"("applicationId");

-- CreateIndex
CREATE INDEX "Message_channelId_id_idx" ON "Message"("channelId", "id");

-- CreateIndex
CREATE INDEX "Message_webhookId_idx" ON "Message"("webhookId");

-- CreateIndex
CREATE INDEX "Message_guildId_idx" ON "Message"("guildId");

-- CreateIndex
CREATE INDEX "Attachment_messageId_idx" ON "Attachment"("messageId");

-- AddForeignKey
ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "Webhook"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Attachment" ADD CONSTRAINT "Attachment_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;
