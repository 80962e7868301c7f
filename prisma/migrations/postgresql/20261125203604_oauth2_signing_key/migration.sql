-- CreateTable
CREATE TABLE "OAuth2SigningKey" (
    "id" TEXT NOT NULL,
    "kid" TEXT NOT NULL,
    "privateJwk" TEXT NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuth2SigningKey_pkey" PRIMARY KEY ("id")
);
