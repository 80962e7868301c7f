-- CreateTable
CREATE TABLE "StoredFileDeletion" (
    "id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "retryAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StoredFileDeletion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BanMessageDeletion" (
    "id" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "sinceId" TEXT NOT NULL,
    "untilId" TEXT NOT NULL,
    "leaseUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BanMessageDeletion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StoredFileDeletion_path_idx" ON "StoredFileDeletion"("path");

-- CreateIndex
CREATE INDEX "StoredFileDeletion_retryAt_createdAt_idx" ON "StoredFileDeletion"("retryAt", "createdAt");

-- CreateIndex
CREATE INDEX "BanMessageDeletion_guildId_idx" ON "BanMessageDeletion"("guildId");

-- CreateIndex
CREATE INDEX "BanMessageDeletion_leaseUntil_idx" ON "BanMessageDeletion"("leaseUntil");

-- AddForeignKey
ALTER TABLE "BanMessageDeletion" ADD CONSTRAINT "BanMessageDeletion_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild"("id") ON DELETE CASCADE ON UPDATE CASCADE;
