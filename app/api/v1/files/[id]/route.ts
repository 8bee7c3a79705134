import { deleteByIdRoute, getByIdRoute } from "@/lib/api/routes";
import { deleteFile, getFile } from "@/lib/files/service";

/** Metadata and the live test cases that reference the file. */
export const GET = getByIdRoute("viewer", getFile);

/** 409 while a live test case references the file; deletes the record and its bytes. */
export const DELETE = deleteByIdRoute("editor", deleteFile);
