select
  "id",
  "participant_test_id",
  "variant_id",
  "status",
  "answer_mode",
  "started_at",
  "time_limit_seconds",
  "extra_seconds",
  "paused_seconds",
  "paused_at",
  "paused_until",
  "deadline_at",
  "window_ends_at",
  "finished_at",
  "finish_reason",
  "device_id",
  "flags",
  "deleted_at",
  "deleted_by",
  "deleted_reason",
  "created_at",
  "updated_at"
from
  "exam_works"
where
  "exam_works"."id" = $1
for update;

update "exam_works"
set
  "status" = $1,
  "paused_seconds" = $2,
  "paused_at" = $3,
  "paused_until" = $4,
  "finished_at" = $5,
  "finish_reason" = $6,
  "updated_at" = $7
where
  "exam_works"."id" = $8
returning
  "id",
  "participant_test_id",
  "variant_id",
  "status",
  "answer_mode",
  "started_at",
  "time_limit_seconds",
  "extra_seconds",
  "paused_seconds",
  "paused_at",
  "paused_until",
  "deadline_at",
  "window_ends_at",
  "finished_at",
  "finish_reason",
  "device_id",
  "flags",
  "deleted_at",
  "deleted_by",
  "deleted_reason",
  "created_at",
  "updated_at";

update "participant_tests"
set
  "status" = $1,
  "updated_at" = $2
where
  (
    "participant_tests"."id" = $3
    and "participant_tests"."status" in ($4, $5, $6)
  );

select distinct
  "exam_work_id"
from
  "scan_pages"
where
  (
    "scan_pages"."exam_work_id" in ($1)
    and "scan_pages"."applied" = $2
    and (
      "scan_pages"."status" = $3
      or "scan_pages"."problem" = $4
    )
  );

select
  "exam_works"."id",
  "participant_tests"."diagnostic_id"
from
  "exam_works"
  inner join "participant_tests" on "participant_tests"."id" = "exam_works"."participant_test_id"
where
  "exam_works"."id" in ($1);

insert into
  "queue_items" (
    "id",
    "type",
    "diagnostic_id",
    "status",
    "payload",
    "dedupe_key",
    "progress",
    "progress_text",
    "result",
    "result_file_id",
    "error",
    "error_code",
    "attempts",
    "max_attempts",
    "run_after",
    "locked_by",
    "locked_at",
    "created_by",
    "created_at",
    "started_at",
    "finished_at"
  )
values
  (
    default,
    $1,
    $2,
    default,
    $3,
    $4,
    default,
    default,
    default,
    default,
    default,
    default,
    default,
    $5,
    default,
    default,
    default,
    $6,
    default,
    default,
    default
  )
on conflict ("dedupe_key")
where
  status in ('queued', 'running') do nothing
returning
  "id";

insert into
  "audit_events" ("id", "at", "user_id", "action", "entity", "entity_id", "reason", "details", "ip")
values
  (default, default, $1, $2, $3, $4, $5, $6, $7);
