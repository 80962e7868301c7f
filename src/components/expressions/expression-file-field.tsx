"use client";

import { Box, Group, Image, Input, Stack, Text } from "@mantine/core";
import { Dropzone } from "@mantine/dropzone";
import { useId, useState } from "react";
import { readImageFile } from "~/components/forms/image-file.ts";
import { IconPhoto, IconUpload } from "~/components/icons.tsx";
import type { ImageFormat } from "~/server/images/image-format.ts";

export type ExpressionFileKind = {
  /** The formats the service takes, as their bytes say. */
  formats: readonly ImageFormat[];
  /** The limit the service holds the file to. */
  maxBytes: number;
  /** "PNG, APNG or GIF, up to 512 KB". */
  hint: string;
};

type Props = {
  label: string;
  kind: ExpressionFileKind;
  /** The chosen file as a data URI, or null before one is chosen. */
  value: string | null;
  onChange: (dataUri: string, file: File) => void;
  error?: string | null;
};

/** The image of a new emoji or sticker: a drop zone that checks the file as the service will, then previews it. */
export function ExpressionFileField({ label, kind, value, onChange, error }: Props) {
  const id = useId();
  const [rejection, setRejection] = useState<string | null>(null);
  const refusal = `Use a ${kind.hint}.`;
  const accept = kind.formats.map((format) => `image/${format}`);

  return (
    <Input.Wrapper label={label} required error={rejection ?? error} id={id}>
      <Group align="stretch" gap="md" mt={6} wrap="nowrap">
        <Box
          w={88}
          h={88}
          style={{ flexShrink: 0, borderRadius: "var(--mantine-radius-md)", overflow: "hidden", border: "1px solid var(--mantine-color-default-border)" }}
          bg="var(--mantine-color-default-hover)"
        >
          {value ? (
            <Image src={value} alt={`${label} preview`} w={88} h={88} fit="contain" />
          ) : (
            <Stack h="100%" align="center" justify="center" c="dimmed" gap={2}>
              <IconPhoto size={24} />
              <Text size="xs">None</Text>
            </Stack>
          )}
        </Box>
        <Dropzone
          flex={1}
          miw={0}
          onDrop={(files) => {
            const file = files[0];
            if (!file) return;
            setRejection(null);
            readImageFile(file, kind.formats, refusal).then(
              (dataUri) => onChange(dataUri, file),
              (cause: Error) => setRejection(cause.message),
            );
          }}
          onReject={(rejections) => setRejection(rejections[0]?.errors[0]?.code === "file-too-large" ? `The file is too large: use a ${kind.hint}.` : refusal)}
          accept={accept}
          maxSize={kind.maxBytes}
          multiple={false}
          data-invalid={Boolean(rejection ?? error)}
          inputProps={{ "aria-label": `Upload ${label.toLowerCase()}`, "aria-describedby": `${id}-hint` }}
          p="sm"
        >
          <Group gap="sm" wrap="nowrap" h="100%" style={{ pointerEvents: "none" }}>
            <IconUpload size={20} />
            <Box>
              <Text size="sm">{value ? "Drop another file or click to replace it" : "Drop a file or click to upload"}</Text>
              <Text size="xs" c="dimmed" id={`${id}-hint`}>
                {kind.hint}
              </Text>
            </Box>
          </Group>
        </Dropzone>
      </Group>
    </Input.Wrapper>
  );
}
