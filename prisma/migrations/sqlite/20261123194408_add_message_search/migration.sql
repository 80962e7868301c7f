-- DropIndex
DROP INDEX "Message_guildId_idx";

-- CreateTable
CREATE TABLE "SearchIndexBuild" (
    "guildId" TEXT NOT NULL PRIMARY KEY,
    "cursor" TEXT,
    "documentsIndexed" INTEGER NOT NULL DEFAULT 0,
    "leaseToken" TEXT,
    "leaseUntil" DATETIME,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SearchIndexBuild_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Message_guildId_id_idx" ON "Message"("guildId", "id");

-- The message search index, in raw SQL: schema.prisma cannot describe it (db/external-tables.ts
-- keeps the schema engine's diffs away from it). FTS5 with English stems; a row's rowid is its
-- message's id as an integer (snowflakes fit in 63 bits), and no copy of the text is kept.
CREATE VIRTUAL TABLE "MessageSearch" USING fts5("content", content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');

-- Triggers keep it in step with Message whatever writes it, cascaded deletes included.
CREATE TRIGGER "Message_search_insert" AFTER INSERT ON "Message" WHEN new."content" <> '' BEGIN
  INSERT INTO "MessageSearch" ("rowid", "content") VALUES (CAST(new."id" AS INTEGER), new."content");
END;

CREATE TRIGGER "Message_search_update" AFTER UPDATE OF "content" ON "Message" WHEN old."content" IS NOT new."content" BEGIN
  DELETE FROM "MessageSearch" WHERE "rowid" = CAST(old."id" AS INTEGER);
  INSERT INTO "MessageSearch" ("rowid", "content") SELECT CAST(new."id" AS INTEGER), new."content" WHERE new."content" <> '';
END;

CREATE TRIGGER "Message_search_delete" AFTER DELETE ON "Message" BEGIN
  DELETE FROM "MessageSearch" WHERE "rowid" = CAST(old."id" AS INTEGER);
END;

-- Messages from before the index are indexed by a background build per guild (search answers 110000 until it is done).
INSERT INTO "SearchIndexBuild" ("guildId") SELECT "id" FROM "Guild" WHERE EXISTS (SELECT 1 FROM "Message" WHERE "Message"."guildId" = "Guild"."id");
