-- CreateTable
CREATE TABLE "Lobby" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "applicationId" TEXT NOT NULL,
    "secret" TEXT,
    "metadata" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "idleTimeoutSeconds" INTEGER NOT NULL,
    "lastActivityAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "linkedChannelId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Lobby_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Lobby_linkedChannelId_fkey" FOREIGN KEY ("linkedChannelId") REFERENCES "Channel" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LobbyMember" (
    "lobbyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "metadata" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "joinedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("lobbyId", "userId"),
    CONSTRAINT "LobbyMember_lobbyId_fkey" FOREIGN KEY ("lobbyId") REFERENCES "Lobby" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LobbyMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LobbyMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "lobbyId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "metadata" TEXT,
    "moderationMetadata" TEXT,
    "forwardedMessageId" TEXT,
    "forwardError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LobbyMessage_lobbyId_fkey" FOREIGN KEY ("lobbyId") REFERENCES "Lobby" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LobbyMessage_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Application" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "icon" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "maxConcurrency" INTEGER NOT NULL DEFAULT 1,
    "rateLimitsLifted" BOOLEAN NOT NULL DEFAULT false,
    "ownerId" TEXT NOT NULL,
    "botUserId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Application_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Application_botUserId_fkey" FOREIGN KEY ("botUserId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Application" ("botUserId", "createdAt", "description", "flags", "icon", "id", "maxConcurrency", "name", "ownerId") SELECT "botUserId", "createdAt", "description", "flags", "icon", "id", "maxConcurrency", "name", "ownerId" FROM "Application";
DROP TABLE "Application";
ALTER TABLE "new_Application" RENAME TO "Application";
CREATE UNIQUE INDEX "Application_botUserId_key" ON "Application"("botUserId");
CREATE INDEX "Application_ownerId_idx" ON "Application"("ownerId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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
