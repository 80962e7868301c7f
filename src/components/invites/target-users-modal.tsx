"use client";

import { Alert, Box, Button, Group, List, Modal, Progress, ScrollArea, Skeleton, Stack, Text } from "@mantine/core";
import { Dropzone } from "@mantine/dropzone";
import { useState } from "react";
import { errorText, notifyFailure, type ApiClientError } from "~/components/forms/server-errors.ts";
import { IconAlertTriangle, IconCheck, IconUpload } from "~/components/icons.tsx";
import { TARGET_USERS_FILE_MAX_BYTES } from "~/server/invites/invite.schema.ts";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import type { InviteRow } from "./invite-options.ts";

const MAX_FILE_MB = TARGET_USERS_FILE_MAX_BYTES / (1024 * 1024);
const POLL_MS = 500;
/** The job status object's `status` (spec 2.1). */
const JOB = { UNSPECIFIED: 0, PROCESSING: 1, COMPLETED: 2, FAILED: 3 } as const;

type JobStatus = RouterOutputs["invite"]["targetUsersStatus"];
type Props = { invite: InviteRow | null; opened: boolean; onClose: () => void };

/** Who may accept an invite: upload a CSV of user ids, watch the job, download the current list. */
export function TargetUsersModal({ invite, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Target users" size="lg">
      {invite ? <TargetUsersPanel key={invite.code} code={invite.code} /> : null}
    </Modal>
  );
}

function TargetUsersPanel({ code }: { code: string }) {
  const utils = api.useUtils();
  const [rejection, setRejection] = useState<string | null>(null);
  const status = api.invite.targetUsersStatus.useQuery(
    { code },
    { refetchInterval: (query) => (query.state.data?.status === JOB.PROCESSING ? POLL_MS : false) },
  );
  const upload = api.invite.uploadTargetUsers.useMutation({ onSuccess: () => utils.invite.targetUsersStatus.invalidate({ code }) });
  const [isDownloading, setDownloading] = useState(false);

  const uploadFile = (file: File) => {
    setRejection(null);
    file.text().then(
      (csv) => upload.mutate({ code, csv }),
      (cause: Error) => setRejection(`Could not read the file: ${cause.message}`),
    );
  };

  const download = async () => {
    setDownloading(true);
    try {
      const csv = await utils.invite.targetUsersCsv.fetch({ code }, { staleTime: 0 });
      const url = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
      const anchor = document.createElement("a");
      anchor.href = url;
      anchor.download = `${code}-target-users.csv`;
      anchor.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      notifyFailure("Could not download the list", error as ApiClientError);
    } finally {
      setDownloading(false);
    }
  };

  const isProcessing = status.data?.status === JOB.PROCESSING;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Only the users listed may accept the invite <b>{code}</b>. Upload a CSV file with a <code>user_id</code> header and one user id per line; it replaces
        the current list once every id is checked.
      </Text>
      <Dropzone
        onDrop={(files) => {
          const file = files[0];
          if (file) uploadFile(file);
        }}
        onReject={(rejections) =>
          setRejection(
            rejections[0]?.errors[0]?.code === "file-too-large" ? `The file can be at most ${MAX_FILE_MB} MB.` : "Use a CSV file (.csv), one user id per line.",
          )
        }
        accept={{ "text/csv": [".csv"] }}
        maxSize={TARGET_USERS_FILE_MAX_BYTES}
        multiple={false}
        loading={upload.isPending}
        disabled={isProcessing}
        inputProps={{ "aria-label": "Upload target users CSV" }}
        p="md"
        style={isProcessing ? { opacity: 0.6, cursor: "not-allowed" } : undefined}
      >
        <Group gap="sm" wrap="nowrap" style={{ pointerEvents: "none" }}>
          <IconUpload size={22} />
          <Box>
            <Text size="sm">Drop a CSV file or click to choose one</Text>
            <Text size="xs" c="dimmed">
              One user id per line, up to {MAX_FILE_MB} MB
            </Text>
          </Box>
        </Group>
      </Dropzone>
      {rejection ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="File not used">
          {rejection}
        </Alert>
      ) : null}
      {upload.error ? <UploadRefusal error={upload.error} /> : null}
      {status.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Could not load the upload status">
          {errorText(status.error)}
        </Alert>
      ) : status.isPending ? (
        <Skeleton h={56} />
      ) : (
        <JobProgress job={status.data} />
      )}
      <Group>
        <Button variant="default" onClick={() => void download()} loading={isDownloading}>
          Download list
        </Button>
      </Group>
    </Stack>
  );
}

/** A refused upload: each line's problem when the file was invalid, else the server's reason. */
function UploadRefusal({ error }: { error: ApiClientError }) {
  const lines = error.data?.lineErrors;
  if (!lines?.length) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Upload refused">
        {errorText(error)}
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The file was not accepted">
      <Text size="sm" mb="xs">
        Fix these lines and upload the file again; the current list is unchanged.
      </Text>
      {/* A long list scrolls: its viewport is a named region that takes focus, so arrow keys scroll it. */}
      <ScrollArea.Autosize mah={180} type="auto" viewportProps={{ tabIndex: 0, role: "region", "aria-label": "Line problems" }}>
        <List size="sm" spacing={2}>
          {lines.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
      </ScrollArea.Autosize>
    </Alert>
  );
}

/** The job status, polled while it runs: a bar of processed users, then the outcome. */
function JobProgress({ job }: { job: JobStatus }) {
  if (job.status === JOB.UNSPECIFIED) {
    return (
      <Text size="sm" c="dimmed">
        No list uploaded yet.
      </Text>
    );
  }
  const percent = job.total_users > 0 ? (job.processed_users / job.total_users) * 100 : 100;
  const counts = `${job.processed_users.toLocaleString()} of ${job.total_users.toLocaleString()} users`;
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {job.status === JOB.PROCESSING ? "Processing…" : job.status === JOB.COMPLETED ? "Upload complete" : "Upload failed"}
        </Text>
        <Text size="sm" c="dimmed" role="status">
          {counts}
        </Text>
      </Group>
      <Progress
        value={percent}
        size="lg"
        color={job.status === JOB.FAILED ? "red" : job.status === JOB.COMPLETED ? "teal" : undefined}
        striped={job.status === JOB.PROCESSING}
        animated={job.status === JOB.PROCESSING}
        aria-label="Upload progress"
      />
      {job.status === JOB.COMPLETED ? (
        <Alert color="teal" variant="light" icon={<IconCheck size={18} />}>
          The list is in place: {job.total_users.toLocaleString()} {job.total_users === 1 ? "user" : "users"} may accept this invite.
        </Alert>
      ) : null}
      {job.status === JOB.FAILED ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The list was not applied">
          {/* One problem a line (the ids no user has). */}
          <Text size="sm" style={{ whiteSpace: "pre-line" }}>
            {job.error_message || "The job stopped without a reason."}
          </Text>
        </Alert>
      ) : null}
    </Stack>
  );
}
