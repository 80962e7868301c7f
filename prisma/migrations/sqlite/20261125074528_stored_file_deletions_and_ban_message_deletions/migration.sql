-- CreateTable
CREATE TABLE "StoredFileDeletion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "path" TEXT NOT NULL,
    "retryAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "BanMessageDeletion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "sinceId" TEXT NOT NULL,
    "untilId" TEXT NOT NULL,
    "leaseUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "BanMessageDeletion_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "StoredFileDeletion_path_idx" ON "StoredFileDeletion"("path");

-- CreateIndex
CREATE INDEX "StoredFileDeletion_retryAt_createdAt_idx" ON "StoredFileDeletion"("retryAt", "createdAt");

-- CreateIndex
CREATE INDEX "BanMessageDeletion_guildId_idx" ON "BanMessageDeletion"("guildId");

-- CreateIndex
CREATE INDEX "BanMessageDeletion_leaseUntil_idx" ON "BanMessageDeletion"("leaseUntil");
