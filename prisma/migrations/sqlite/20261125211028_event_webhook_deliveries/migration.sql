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

-- CreateIndex
CREATE INDEX "EventWebhookDelivery_status_nextAttemptAt_idx" ON "EventWebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "EventWebhookDelivery_applicationId_id_idx" ON "EventWebhookDelivery"("applicationId", "id");

-- CreateIndex
CREATE INDEX "EventWebhookDelivery_finishedAt_idx" ON "EventWebhookDelivery"("finishedAt");

-- CreateIndex
CREATE UNIQUE INDEX "EventWebhookDelivery_applicationId_eventSeq_key" ON "EventWebhookDelivery"("applicationId", "eventSeq");
