-- DropIndex
DROP INDEX "Message_guildId_idx";

-- CreateTable
CREATE TABLE "SearchIndexBuild" (
    "guildId" TEXT NOT NULL,
    "cursor" TEXT,
    "documentsIndexed" INTEGER NOT NULL DEFAULT 0,
    "leaseToken" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SearchIndexBuild_pkey" PRIMARY KEY ("guildId")
);

-- CreateIndex
CREATE INDEX "Message_guildId_id_idx" ON "Message"("guildId", "id");

-- AddForeignKey
ALTER TABLE "SearchIndexBuild" ADD CONSTRAINT "SearchIndexBuild_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The message search index, in raw SQL: schema.prisma cannot describe it (db/external-tables.ts
-- keeps the schema engine's diffs away from it). A tsvector of English stems per message with
-- content, under a GIN index; rows go with their message.
CREATE TABLE "MessageSearch" (
    "messageId" TEXT NOT NULL,
    "document" TSVECTOR NOT NULL,

    CONSTRAINT "MessageSearch_pkey" PRIMARY KEY ("messageId"),
    CONSTRAINT "MessageSearch_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE
);

CREATE INDEX "MessageSearch_document_idx" ON "MessageSearch" USING GIN ("document");

-- Triggers keep it in step with Message whatever writes it.
CREATE FUNCTION "Message_search_sync"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."content" = '' THEN
    DELETE FROM "MessageSearch" WHERE "messageId" = NEW."id";
  ELSE
    INSERT INTO "MessageSearch" ("messageId", "document") VALUES (NEW."id", to_tsvector('english', NEW."content"))
      ON CONFLICT ("messageId") DO UPDATE SET "document" = EXCLUDED."document";
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Message_search_insert" AFTER INSERT ON "Message"
  FOR EACH ROW WHEN (NEW."content" <> '') EXECUTE FUNCTION "Message_search_sync"();

CREATE TRIGGER "Message_search_update" AFTER UPDATE OF "content" ON "Message"
  FOR EACH ROW WHEN (OLD."content" IS DISTINCT FROM NEW."content") EXECUTE FUNCTION "Message_search_sync"();

-- Messages from before the index are indexed by a background build per guild (search answers 110000 until it is done).
INSERT INTO "SearchIndexBuild" ("guildId") SELECT "id" FROM "Guild" WHERE EXISTS (SELECT 1 FROM "Message" WHERE "Message"."guildId" = "Guild"."id");
