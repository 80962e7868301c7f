-- AlterTable
ALTER TABLE "Application" ADD COLUMN     "botPublic" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "botRequireCodeGrant" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "clientSecretHash" TEXT,
ADD COLUMN     "eventWebhooksStatus" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "eventWebhooksTypes" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "eventWebhooksUrl" TEXT,
ADD COLUMN     "partner" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "publicClient" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "redirectUris" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "signingKey" TEXT,
ADD COLUMN     "verifyKey" TEXT;

-- AlterTable
ALTER TABLE "Token" ADD COLUMN     "authorizationId" TEXT,
ADD COLUMN     "pairedTokenId" TEXT;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "bannedUntil" TIMESTAMP(3),
ADD COLUMN     "premiumType" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "provisionalApplicationId" TEXT;

-- CreateTable
CREATE TABLE "OAuth2Authorization" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OAuth2Authorization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuth2Code" (
    "id" TEXT NOT NULL,
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
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "tokenId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuth2Code_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OAuth2Authorization_userId_idx" ON "OAuth2Authorization"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "OAuth2Authorization_applicationId_userId_key" ON "OAuth2Authorization"("applicationId", "userId");

-- CreateIndex
CREATE INDEX "OAuth2Code_expiresAt_idx" ON "OAuth2Code"("expiresAt");

-- CreateIndex
CREATE INDEX "Token_authorizationId_idx" ON "Token"("authorizationId");

-- AddForeignKey
ALTER TABLE "OAuth2Authorization" ADD CONSTRAINT "OAuth2Authorization_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuth2Authorization" ADD CONSTRAINT "OAuth2Authorization_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
