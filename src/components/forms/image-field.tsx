"use client";

import { Box, Button, Group, Image, Input, Stack, Text } from "@mantine/core";
import { Dropzone, IMAGE_MIME_TYPE } from "@mantine/dropzone";
import { useId, useState, type ReactNode } from "react";
import { IconLock, IconPhoto, IconUpload } from "~/components/icons.tsx";
import { readImageFile } from "./image-file.ts";

/** Uploads larger than this are refused before they are read (the API's own ceiling). */
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const ACCEPTED = IMAGE_MIME_TYPE.filter((type) => ["image/png", "image/jpeg", "image/gif", "image/webp"].includes(type));

type Props = {
  label: string;
  description?: ReactNode;
  /** The stored image's address, if any. */
  currentUrl: string | null;
  /** `undefined` keeps the stored image, `null` removes it, a data URI replaces it. */
  value: string | null | undefined;
  onChange: (value: string | null | undefined) => void;
  error?: ReactNode;
  disabled?: boolean;
  /** Why this image can't be set (the server's reason): the field is disabled and says so. */
  lockReason?: string | null;
  shape: "square" | "wide";
};

const NOT_AN_IMAGE = "This file isn't a PNG, JPEG, GIF or WebP image. Choose an image file.";

/** An image setting: preview, a drop zone that turns the file into a data URI, remove and undo. */
export function ImageField({ label, description, currentUrl, value, onChange, error, disabled: disabledByForm, lockReason, shape }: Props) {
  const id = useId();
  const disabled = Boolean(disabledByForm) || Boolean(lockReason);
  const [rejection, setRejection] = useState<string | null>(null);
  const preview = value === undefined ? currentUrl : value;
  const size = shape === "square" ? { w: 88, h: 88 } : { w: 144, h: 81 };

  return (
    <Input.Wrapper
      label={label}
      description={
        lockReason ? (
          <>
            {description}{" "}
            <Text span size="xs" c="orange.8" fw={500}>
              <IconLock size={11} style={{ verticalAlign: "-1px" }} /> {lockReason}
            </Text>
          </>
        ) : (
          description
        )
      }
      error={error ?? rejection}
      id={id}
    >
      <Group align="stretch" gap="md" mt={6} wrap="nowrap">
        <Box
          {...size}
          style={{ flexShrink: 0, borderRadius: "var(--mantine-radius-md)", overflow: "hidden", border: "1px solid var(--mantine-color-default-border)" }}
          bg="var(--mantine-color-default-hover)"
        >
          {preview ? (
            <Image src={preview} alt={`${label} preview`} {...size} fit="cover" />
          ) : (
            <Stack h="100%" align="center" justify="center" c="dimmed" gap={2}>
              <IconPhoto size={24} />
              <Text size="xs">None</Text>
            </Stack>
          )}
        </Box>
        <Stack gap="xs" flex={1} miw={0}>
          <Dropzone
            onDrop={(files) => {
              const file = files[0];
              if (!file) return;
              setRejection(null);
              readImageFile(file, ["png", "jpeg", "gif", "webp"], NOT_AN_IMAGE).then(onChange, (cause: Error) => setRejection(cause.message));
            }}
            onReject={(rejections) =>
              setRejection(rejections[0]?.errors[0]?.code === "file-too-large" ? "Images can be at most 10 MB." : "Use a PNG, JPEG, GIF or WebP image.")
            }
            accept={ACCEPTED}
            maxSize={MAX_UPLOAD_BYTES}
            multiple={false}
            disabled={disabled}
            data-invalid={Boolean(error ?? rejection)}
            inputProps={{ "aria-label": `Upload ${label.toLowerCase()}`, "aria-describedby": `${id}-hint`, disabled }}
            p="sm"
            // Greyed by its background, not by opacity, so its words stay readable (contrast).
            style={disabled ? { cursor: "not-allowed", background: "var(--mantine-color-default-hover)" } : undefined}
          >
            <Group gap="sm" wrap="nowrap" style={{ pointerEvents: "none" }}>
              <IconUpload size={20} />
              <Box>
                <Text size="sm">{disabled ? "Upload not available" : "Drop an image or click to upload"}</Text>
                <Text size="xs" c="dimmed" id={`${id}-hint`}>
                  PNG, JPEG, GIF or WebP, up to 10 MB
                </Text>
              </Box>
            </Group>
          </Dropzone>
          <Group gap="xs">
            {preview ? (
              <Button size="compact-xs" variant="subtle" color="red" disabled={disabledByForm} onClick={() => onChange(null)}>
                Remove {label.toLowerCase()}
              </Button>
            ) : null}
            {value !== undefined ? (
              <Button
                size="compact-xs"
                variant="subtle"
                color="gray"
                disabled={disabledByForm}
                aria-label={`Undo the ${label.toLowerCase()} change`}
                onClick={() => onChange(undefined)}
              >
                Undo
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}
