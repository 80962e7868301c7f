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
ALTER TABLE "Role" ADD COLUMN     "botId" TEXT;

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

-- CreateTable
CREATE TABLE "OAuth2SigningKey" (
    "id" TEXT NOT NULL,
    "kid" TEXT NOT NULL,
    "privateJwk" TEXT NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuth2SigningKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EventWebhookDelivery" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "eventSeq" INTEGER NOT NULL,
    "eventType" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "leaseUntil" TIMESTAMP(3),
    "lastHttpStatus" INTEGER,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "EventWebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EventWebhookCursor" (
    "id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,

    CONSTRAINT "EventWebhookCursor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExternalIdentity" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "authType" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExternalIdentity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IdentityProvider" (
    "applicationId" TEXT NOT NULL,
    "authType" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "audience" TEXT NOT NULL,
    "jwksUri" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdentityProvider_pkey" PRIMARY KEY ("applicationId","authType")
);

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

-- AddForeignKey
ALTER TABLE "OAuth2Authorization" ADD CONSTRAINT "OAuth2Authorization_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuth2Authorization" ADD CONSTRAINT "OAuth2Authorization_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EventWebhookDelivery" ADD CONSTRAINT "EventWebhookDelivery_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExternalIdentity" ADD CONSTRAINT "ExternalIdentity_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExternalIdentity" ADD CONSTRAINT "ExternalIdentity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IdentityProvider" ADD CONSTRAINT "IdentityProvider_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;
