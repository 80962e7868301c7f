-- CreateTable
CREATE TABLE "ApplicationCommand" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "applicationId" TEXT NOT NULL,
    "guildId" TEXT,
    "scope" TEXT NOT NULL,
    "type" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "definition" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ApplicationCommand_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApplicationCommand_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApplicationCommandPermissions" (
    "applicationId" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "permissions" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("guildId", "applicationId", "targetId"),
    CONSTRAINT "ApplicationCommandPermissions_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApplicationCommandPermissions_guildId_fkey" FOREIGN KEY ("guildId") REFERENCES "Guild" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApplicationCommandCreate" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "applicationId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "ApplicationCommandCreate_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ApplicationCommand_guildId_idx" ON "ApplicationCommand"("guildId");

-- CreateIndex
CREATE UNIQUE INDEX "ApplicationCommand_applicationId_scope_type_name_key" ON "ApplicationCommand"("applicationId", "scope", "type", "name");

-- CreateIndex
CREATE INDEX "ApplicationCommandPermissions_applicationId_idx" ON "ApplicationCommandPermissions"("applicationId");

-- CreateIndex
CREATE INDEX "ApplicationCommandCreate_applicationId_scope_createdAt_idx" ON "ApplicationCommandCreate"("applicationId", "scope", "createdAt");
