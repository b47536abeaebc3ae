CREATE TABLE "html_container_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"container_id" integer NOT NULL,
	"version" integer NOT NULL,
	"entry" text NOT NULL,
	"file_count" integer NOT NULL,
	"total_bytes" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "html_container_versions" ADD CONSTRAINT "html_container_versions_container_id_html_containers_id_fk" FOREIGN KEY ("container_id") REFERENCES "public"."html_containers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "html_container_versions_container_id_version_index" ON "html_container_versions" USING btree ("container_id","version");--> statement-breakpoint
INSERT INTO "html_container_versions" ("container_id", "version", "entry", "file_count", "total_bytes", "created_at")
SELECT c."id", r."version", c."entry", count(*)::integer, coalesce(sum(octet_length(r."data")), 0)::integer, c."created_at"
FROM "html_containers" c JOIN "html_container_resources" r ON r."container_id" = c."id"
GROUP BY c."id", r."version", c."entry", c."created_at";
