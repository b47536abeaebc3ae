select
  "variant_tasks"."variant_id",
  "tasks"."answer_type",
  "tasks"."content"
from
  "variant_tasks"
  inner join "tasks" on "tasks"."id" = "variant_tasks"."task_id"
where
  "variant_tasks"."id" = $1;

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
            $3::int[]
        ),
        (
          select
            $4::text[]
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
            $7::text[]
        ),
        (
          select
            $8::timestamptz[]
        )
      ) with ordinality as i (work_id, pt_id, vt_id, value, seq, user_id, device_id, at, ord)
  ),
  w as (
    select
      id,
      participant_test_id,
      variant_id,
      status,
      answer_mode,
      paused_at,
      finished_at,
      deleted_at,
      device_id,
      -- the deadline from its parts, exactly as lib/work-clock.ts computeDeadline
      least(
        started_at + (time_limit_seconds + extra_seconds + paused_seconds) * interval '1 second',
        window_ends_at
      ) as deadline
    from
      exam_works
    where
      id in (
        select
          work_id
        from
          i
      )
    order by
      id
    for share
  ),
  ok as (
    select
      i.work_id,
      i.vt_id,
      i.value,
      i.seq,
      i.user_id,
      i.at,
      w.answer_mode
    from
      i
      join w on w.id = i.work_id
    where
      w.participant_test_id = i.pt_id
      and w.deleted_at is null
      and w.finished_at is null
      and w.status = 'in_progress'
      and w.paused_at is null
      and w.deadline > i.at
      and (
        w.device_id is null
        or i.device_id is null
        or w.device_id = i.device_id
      )
      and exists (
        select
          1
        from
          variant_tasks vt
        where
          vt.id = i.vt_id
          and vt.variant_id = w.variant_id
      )
  ),
  up as (
    insert into
      answers (exam_work_id, variant_task_id, value, seq, answer_mode, source, saved_by, saved_at)
    select
      work_id,
      vt_id,
      value::jsonb,
      seq,
      answer_mode,
      'participant',
      user_id,
      at
    from
      ok
    on conflict (exam_work_id, variant_task_id) do update
    set
      value = excluded.value,
      seq = excluded.seq,
      source = excluded.source,
      saved_by = excluded.saved_by,
      saved_at = excluded.saved_at
    where
      answers.seq < excluded.seq
    returning
      exam_work_id,
      variant_task_id,
      seq,
      saved_at
  )
select
  i.ord,
  up.seq,
  up.saved_at
from
  i
  join up on up.exam_work_id = i.work_id
  and up.variant_task_id = i.vt_id;
