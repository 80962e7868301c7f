import { PageSkeleton } from "~/components/page-skeleton.tsx";

export default function Loading() {
  return <PageSkeleton />;
}
