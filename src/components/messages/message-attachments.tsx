"use client";

import { Anchor, Box, Group, Image, Paper, Text, UnstyledButton } from "@mantine/core";
import { AttachmentFlags } from "discord-api-types/v10";
import { useState, type ReactNode } from "react";
import { IconFile } from "~/components/icons.tsx";
import type { DashboardAttachment } from "./message-types.ts";

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The file store's path: the dashboard serves /cdn itself, whatever public host the API names. */
function localUrl(url: string): string {
  return url.replace(/^https?:\/\/[^/]+(?=\/cdn\/)/, "");
}

function isSpoiler(attachment: DashboardAttachment): boolean {
  return ((attachment.flags ?? 0) & AttachmentFlags.IsSpoiler) !== 0 || attachment.filename.startsWith("SPOILER_");
}

/** A spoiler stays blurred until the reader clicks it. */
function Spoiler({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  if (shown) return <>{children}</>;
  return (
    <UnstyledButton className="message-spoiler" onClick={() => setShown(true)} aria-label="Show spoiler">
      <Box className="message-spoiler-content" aria-hidden>
        {children}
      </Box>
      <Text className="message-spoiler-label" size="xs" fw={700}>
        SPOILER
      </Text>
    </UnstyledButton>
  );
}

function Attachment({ attachment }: { attachment: DashboardAttachment }) {
  const url = localUrl(attachment.url);
  const body = attachment.content_type?.startsWith("image/") ? (
    // As wide as the message's column allows, on a phone too.
    <Anchor href={url} target="_blank" rel="noopener noreferrer" display="block" maw="min(360px, 100%)">
      <Image src={url} alt={attachment.description ?? attachment.filename} maw="100%" mah={280} w="auto" fit="contain" radius="sm" />
    </Anchor>
  ) : (
    <Paper withBorder p="sm" radius="sm" maw={360}>
      <Group gap="sm" wrap="nowrap">
        <Box c="dimmed" style={{ display: "inline-flex" }}>
          <IconFile size={22} />
        </Box>
        <Box miw={0}>
          <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm" truncate display="block">
            {attachment.filename}
          </Anchor>
          <Text size="xs" c="dimmed">
            {formatSize(attachment.size)}
            {attachment.description ? ` · ${attachment.description}` : ""}
          </Text>
        </Box>
      </Group>
    </Paper>
  );
  return isSpoiler(attachment) ? <Spoiler>{body}</Spoiler> : body;
}

/** Image previews for images, a file card for anything else; spoilers hidden until clicked. */
export function MessageAttachments({ attachments }: { attachments: readonly DashboardAttachment[] }) {
  return (
    <Group gap="sm" align="flex-start">
      {attachments.map((attachment) => (
        <Attachment key={attachment.id} attachment={attachment} />
      ))}
    </Group>
  );
}
