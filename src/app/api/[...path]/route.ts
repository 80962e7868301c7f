// `/api/...` without a version means v10; the dispatcher reads the path either way.
export { dynamic, GET, POST, PUT, PATCH, DELETE } from "../v10/[...path]/route.ts";
