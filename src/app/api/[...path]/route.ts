// `/api/...` without a version means v10; the dispatcher reads the path either way.
// Segment config must be declared here, not re-exported.
export const dynamic = "force-dynamic";
export { GET, POST, PUT, PATCH, DELETE } from "../v10/[...path]/route.ts";
