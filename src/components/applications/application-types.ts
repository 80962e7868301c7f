import type { RouterOutputs } from "~/trpc/react.tsx";

export type ApplicationSummary = RouterOutputs["application"]["list"][number];
export type ApplicationDetail = RouterOutputs["application"]["get"];
