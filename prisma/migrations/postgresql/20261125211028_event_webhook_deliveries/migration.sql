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

-- CreateIndex
CREATE INDEX "EventWebhookDelivery_status_nextAttemptAt_idx" ON "EventWebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "EventWebhookDelivery_applicationId_id_idx" ON "EventWebhookDelivery"("applicationId", "id");

-- CreateIndex
CREATE INDEX "EventWebhookDelivery_finishedAt_idx" ON "EventWebhookDelivery"("finishedAt");

-- CreateIndex
CREATE UNIQUE INDEX "EventWebhookDelivery_applicationId_eventSeq_key" ON "EventWebhookDelivery"("applicationId", "eventSeq");

-- AddForeignKey
ALTER TABLE "EventWebhookDelivery" ADD CONSTRAINT "EventWebhookDelivery_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;
