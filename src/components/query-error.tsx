"use client";

import { Alert, Button } from "@mantine/core";
import { errorText, type ApiClientError } from "~/components/forms/server-errors.ts";
import { IconAlertTriangle, IconRefresh } from "~/components/icons.tsx";

/** A failed load, with a retry. */
export function QueryError({ error, onRetry, title = "Could not load this" }: { error: ApiClientError | Error; onRetry?: () => void; title?: string }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={title} role="alert">
      {errorText(error)}
      {onRetry ? (
        <div>
          <Button mt="sm" size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : null}
    </Alert>
  );
}
