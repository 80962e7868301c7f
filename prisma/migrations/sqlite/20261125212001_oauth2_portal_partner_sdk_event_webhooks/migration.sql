-- AlterTable
ALTER TABLE "Role" ADD COLUMN "botId" TEXT;

-- AlterTable
ALTER TABLE "Token" ADD COLUMN "authorizationId" TEXT;
ALTER TABLE "Token" ADD COLUMN "pairedTokenId" TEXT;

-- CreateTable
CREATE TABLE "OAuth2Authorization" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "applicationId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "OAuth2Authorization_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "OAuth2Authorization_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OAuth2Code" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "applicationId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "authorizationId" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "redirectUri" TEXT,
    "codeChallenge" TEXT,
    "codeChallengeMethod" TEXT,
    "nonce" TEXT,
    "guildId" TEXT,
    "webhookId" TEXT,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "tokenId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "OAuth2SigningKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kid" TEXT NOT NULL,
    "privateJwk" TEXT NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "EventWebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "applicationId" TEXT NOT NULL,
    "eventSeq" INTEGER NOT NULL,
    "eventType" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "leaseUntil" DATETIME,
    "lastHttpStatus" INTEGER,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "EventWebhookDelivery_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EventWebhookCursor" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "seq" INTEGER NOT NULL
);

-- CreateTable
CREATE TABLE "ExternalIdentity" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "applicationId" TEXT NOT NULL,
    "authType" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ExternalIdentity_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ExternalIdentity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IdentityProvider" (
    "applicationId" TEXT NOT NULL,
    "authType" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "audience" TEXT NOT NULL,
    "jwksUri" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("applicationId", "authType"),
    CONSTRAINT "IdentityProvider_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
    "channelObfuscation" BOOLEAN NOT NULL DEFAULT false,
    "clientSecretHash" TEXT,
    "redirectUris" TEXT NOT NULL DEFAULT '[]',
    "publicClient" BOOLEAN NOT NULL DEFAULT false,
    "botPublic" BOOLEAN NOT NULL DEFAULT true,
    "botRequireCodeGrant" BOOLEAN NOT NULL DEFAULT false,
    "partner" BOOLEAN NOT NULL DEFAULT false,
    "verifyKey" TEXT,
    "signingKey" TEXT,
    "eventWebhooksUrl" TEXT,
    "eventWebhooksStatus" INTEGER NOT NULL DEFAULT 1,
    "eventWebhooksTypes" TEXT NOT NULL DEFAULT '[]',
    CONSTRAINT "Application_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Application_botUserId_fkey" FOREIGN KEY ("botUserId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Application" ("botUserId", "channelObfuscation", "createdAt", "description", "flags", "icon", "id", "maxConcurrency", "name", "ownerId", "rateLimitsLifted") SELECT "botUserId", "channelObfuscation", "createdAt", "description", "flags", "icon", "id", "maxConcurrency", "name", "ownerId", "rateLimitsLifted" FROM "Application";
DROP TABLE "Application";
ALTER TABLE "new_Application" RENAME TO "Application";
CREATE UNIQUE INDEX "Application_botUserId_key" ON "Application"("botUserId");
CREATE INDEX "Application_ownerId_idx" ON "Application"("ownerId");
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "username" TEXT NOT NULL,
    "globalName" TEXT,
    "avatar" TEXT,
    "bot" BOOLEAN NOT NULL DEFAULT false,
    "system" BOOLEAN NOT NULL DEFAULT false,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "email" TEXT,
    "passwordHash" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastActiveAt" DATETIME,
    "profilePrivacy" TEXT NOT NULL DEFAULT 'everyone',
    "premiumType" INTEGER NOT NULL DEFAULT 0,
    "provisionalApplicationId" TEXT,
    "bannedUntil" DATETIME
);
INSERT INTO "new_User" ("avatar", "bot", "createdAt", "email", "flags", "globalName", "id", "lastActiveAt", "passwordHash", "profilePrivacy", "system", "username") SELECT "avatar", "bot", "createdAt", "email", "flags", "globalName", "id", "lastActiveAt", "passwordHash", "profilePrivacy", "system", "username" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE INDEX "User_username_idx" ON "User"("username");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "OAuth2Authorization_userId_idx" ON "OAuth2Authorization"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "OAuth2Authorization_applicationId_userId_key" ON "OAuth2Authorization"("applicationId", "userId");

-- CreateIndex
CREATE INDEX "OAuth2Code_expiresAt_idx" ON "OAuth2Code"("expiresAt");

-- CreateIndex
CREATE INDEX "EventWebhookDelivery_status_nextAttemptAt_idx" ON "EventWebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "EventWebhookDelivery_applicationId_id_idx" ON "EventWebhookDelivery"("applicationId", "id");

-- CreateIndex
CREATE INDEX "EventWebhookDelivery_finishedAt_idx" ON "EventWebhookDelivery"("finishedAt");

-- CreateIndex
CREATE UNIQUE INDEX "EventWebhookDelivery_applicationId_eventSeq_key" ON "EventWebhookDelivery"("applicationId", "eventSeq");

-- CreateIndex
CREATE INDEX "ExternalIdentity_userId_idx" ON "ExternalIdentity"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ExternalIdentity_applicationId_authType_subject_key" ON "ExternalIdentity"("applicationId", "authType", "subject");

-- CreateIndex
CREATE INDEX "Token_authorizationId_idx" ON "Token"("authorizationId");
