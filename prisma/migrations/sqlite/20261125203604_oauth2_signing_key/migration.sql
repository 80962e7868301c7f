-- CreateTable
CREATE TABLE "OAuth2SigningKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kid" TEXT NOT NULL,
    "privateJwk" TEXT NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
