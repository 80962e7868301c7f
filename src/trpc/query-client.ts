import { QueryClient } from "@tanstack/react-query";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Server-rendered data is fresh on arrival; don't refetch it straight after hydration.
      queries: { staleTime: 30_000, retry: (failures, error) => failures < 2 && !isClientError(error) },
    },
  });
}

/** 4xx answers (not found, forbidden, invalid input) won't change on a retry. */
function isClientError(error: unknown): boolean {
  const status = (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
  return typeof status === "number" && status >= 400 && status < 500;
}
