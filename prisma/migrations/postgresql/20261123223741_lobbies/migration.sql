-- AlterTable
ALTER TABLE "Application" ADD COLUMN     "rateLimitsLifted" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "Lobby" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "secret" TEXT,
    "metadata" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "idleTimeoutSeconds" INTEGER NOT NULL,
    "lastActivityAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "linkedChannelId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Lobby_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LobbyMember" (
    "lobbyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "metadata" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "joinedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LobbyMember_pkey" PRIMARY KEY ("lobbyId","userId")
);

-- CreateTable
CREATE TABLE "LobbyMessage" (
    "id" TEXT NOT NULL,
    "lobbyId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "metadata" TEXT,
    "moderationMetadata" TEXT,
    "forwardedMessageId" TEXT,
    "forwardError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LobbyMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Lobby_linkedChannelId_key" ON "Lobby"("linkedChannelId");

-- CreateIndex
CREATE INDEX "Lobby_expiresAt_idx" ON "Lobby"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Lobby_applicationId_secret_key" ON "Lobby"("applicationId", "secret");

-- CreateIndex
CREATE INDEX "LobbyMember_userId_applicationId_idx" ON "LobbyMember"("userId", "applicationId");

-- CreateIndex
CREATE INDEX "LobbyMessage_lobbyId_id_idx" ON "LobbyMessage"("lobbyId", "id");

-- AddForeignKey
ALTER TABLE "Lobby" ADD CONSTRAINT "Lobby_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Lobby" ADD CONSTRAINT "Lobby_linkedChannelId_fkey" FOREIGN KEY ("linkedChannelId") REFERENCES "Channel"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LobbyMember" ADD CONSTRAINT "LobbyMember_lobbyId_fkey" FOREIGN KEY ("lobbyId") REFERENCES "Lobby"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LobbyMember" ADD CONSTRAINT "LobbyMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LobbyMessage" ADD CONSTRAINT "LobbyMessage_lobbyId_fkey" FOREIGN KEY ("lobbyId") REFERENCES "Lobby"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LobbyMessage" ADD CONSTRAINT "LobbyMessage_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
