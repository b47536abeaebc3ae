select
  "sessions"."id",
  "sessions"."user_id",
  "sessions"."kind",
  "sessions"."participant_test_id",
  "sessions"."activation_code",
  "sessions"."app_shell",
  "sessions"."user_agent",
  "sessions"."ip",
  "sessions"."created_at",
  "sessions"."last_seen_at",
  "sessions"."expires_at",
  "sessions"."revoked_at",
  "sessions"."revoked_reason",
  "users"."id",
  "users"."login",
  "users"."email",
  "users"."surname",
  "users"."name",
  "users"."patronymic",
  "users"."password_hash",
  "users"."email_confirmed_at",
  "users"."is_blocked",
  "users"."school_id",
  "users"."oo_id",
  "users"."area_id",
  "users"."student_id",
  "users"."worker_id",
  "users"."profile",
  "users"."external_provider",
  "users"."external_subject",
  "users"."created_at",
  "users"."updated_at",
  array(
    select
      "user_roles"."role"
    from
      "user_roles"
    where
      "user_roles"."user_id" = "users"."id"
    order by
      1
  )
from
  "sessions"
  inner join "users" on "users"."id" = "sessions"."user_id"
where
  (
    "sessions"."id" = $1
    and "sessions"."revoked_at" is null
  )
limit
  $2;

select
  "participant_tests"."id",
  "participant_tests"."status",
  "participant_tests"."test_date",
  "participant_tests"."diagnostic_id",
  "participant_tests"."subject_test_id",
  "participant_tests"."student_id",
  "participant_tests"."worker_id",
  "participant_tests"."school_id",
  "participant_tests"."class_id",
  "participant_tests"."building_id",
  "participant_tests"."activation_code",
  "participant_tests"."registration_code",
  "diagnostics"."starts_at",
  "diagnostics"."ends_at",
  "diagnostics"."name",
  "diagnostics"."results_published",
  "diagnostics"."first_published_at"
from
  "participant_tests"
  inner join "diagnostics" on "diagnostics"."id" = "participant_tests"."diagnostic_id"
where
  (
    "participant_tests"."id" = $1
    and "participant_tests"."deleted_at" is null
    and "diagnostics"."deleted_at" is null
  )
limit
  $2;

select
  "subject_tests"."id",
  "subject_tests"."name",
  "subjects"."name",
  "subject_tests"."parallels",
  "subject_tests"."duration_minutes",
  "subject_tests"."description",
  "subject_tests"."allow_blank",
  "subject_tests"."allow_calculator",
  "subject_tests"."test_group_id",
  "subject_tests"."quiz_id",
  "subject_tests"."instruction_html"
from
  "subject_tests"
  inner join "subject_exams" on "subject_exams"."id" = "subject_tests"."subject_exam_id"
  inner join "subjects" on "subjects"."id" = "subject_exams"."subject_id"
where
  "subject_tests"."id" = $1;

select
  "id"
from
  "variants"
where
  (
    "variants"."subject_test_id" = $1
    and "variants"."superseded_at" is null
  )
order by
  "variants"."number" asc
limit
  $2;

select
  count(*)
from
  "variant_tasks"
where
  "variant_tasks"."variant_id" = $1;

select
  "surname",
  "name",
  "patronymic",
  "accommodations"
from
  "students"
where
  "students"."id" = $1;

select
  "classes"."name",
  "schools"."name"
from
  "schools"
  left join "classes" on "classes"."id" = $1
where
  "schools"."id" = $2;

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
  (
    "exam_works"."participant_test_id" = $1
    and "exam_works"."deleted_at" is null
  );

select
  v.id,
  count(w.id) as used
from
  variants v
  left join exam_works w on w.variant_id = v.id
  and w.deleted_at is null
  and w.participant_test_id in (
    select
      p.id
    from
      participant_tests p
    where
      p.diagnostic_id = $1
      and p.subject_test_id = $2
      and p.class_id = $3
  )
where
  v.subject_test_id = $4
  and v.superseded_at is null
group by
  v.id,
  v.number
order by
  v.number;

with
  i as (
    select
      *
    from
      unnest(
        (
          select
            $1::int[]
        ),
        (
          select
            $2::int[]
        ),
        (
          select
            $3::text[]
        ),
        (
          select
            $4::timestamptz[]
        ),
        (
          select
            $5::int[]
        ),
        (
          select
            $6::int[]
        ),
        (
          select
            $7::timestamptz[]
        ),
        (
          select
            $8::timestamptz[]
        ),
        (
          select
            $9::text[]
        ),
        (
          select
            $10::int[]
        ),
        (
          select
            $11::inet[]
        ),
        (
          select
            $12::int[]
        ),
        (
          select
            $13::int[]
        )
      ) with ordinality as i (
        pt_id,
        variant_id,
        answer_mode,
        started_at,
        time_limit_seconds,
        extra_seconds,
        window_ends_at,
        deadline_at,
        device_id,
        user_id,
        ip,
        subject_test_id,
        extra_time_percent,
        ord
      )
  ),
  open_diagnostic as (
    -- No work starts once the results have been published (docs/design.md §3). The key-share
    -- lock makes a start and a publication (which locks the row for update) wait for each other:
    -- a start that waited reads the published row and starts nothing; a publication that waited
    -- counts the started work as unfinished. Nor does one start when the participant test or its
    -- diagnostic is no longer as the start read it (the code login's copy, lib/start-prime.ts):
    -- deleted, annulled or finished, another subject test, another window, other extra time.
    select
      p.id as pt_id
    from
      i
      join participant_tests p on p.id = i.pt_id
      join diagnostics d on d.id = p.diagnostic_id
      left join students s on s.id = p.student_id
      left join workers k on k.id = p.worker_id
    where
      d.first_published_at is null
      and p.deleted_at is null
      and d.deleted_at is null
      and p.status not in ('annulled', 'finished', 'scored', 'published')
      and p.subject_test_id = i.subject_test_id
      and d.starts_at <= i.started_at
      and d.ends_at > i.window_ends_at - interval '1 millisecond'
      and d.ends_at < i.window_ends_at + interval '1 millisecond'
      and (coalesce(s.accommodations, k.accommodations) ->> 'extraTimePercent')::int is not distinct from i.extra_time_percent
    for key share of
      d
  ),
  w as (
    insert into
      exam_works (
        participant_test_id,
        variant_id,
        status,
        answer_mode,
        started_at,
        time_limit_seconds,
        extra_seconds,
        paused_seconds,
        window_ends_at,
        deadline_at,
        device_id
      )
    select
      pt_id,
      variant_id,
      'in_progress',
      answer_mode,
      started_at,
      time_limit_seconds,
      extra_seconds,
      0,
      window_ends_at,
      deadline_at,
      device_id
    from
      i
    where
      pt_id in (
        select
          pt_id
        from
          open_diagnostic
      )
    order by
      pt_id
    on conflict (participant_test_id)
    where
      deleted_at is null do nothing
    returning
      *
  ),
  pt as (
    update participant_tests p
    set
      status = 'in_progress',
      updated_at = now()
    from
      w
    where
      p.id = w.participant_test_id
      and p.status in ('planned', 'active')
  ),
  log as (
    insert into
      audit_events (user_id, action, entity, entity_id, details, ip)
    select
      i.user_id,
      'exam_work.start',
      'exam_work',
      w.id::text,
      jsonb_build_object('participantTestId', w.participant_test_id, 'variantId', w.variant_id, 'answerMode', w.answer_mode),
      i.ip
    from
      w
      join i on i.pt_id = w.participant_test_id
  )
select
  i.ord,
  w.*
from
  w
  join i on i.pt_id = w.participant_test_id;
