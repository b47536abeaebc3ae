ALTER TABLE "files" ALTER COLUMN "data" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_bytes_stored" CHECK ("files"."data" is not null or "files"."storage_key" is not null);