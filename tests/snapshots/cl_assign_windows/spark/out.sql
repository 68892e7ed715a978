-- assign_windows: request mode: each record's time window (cells of the window's length from the region's
-- start), part of its root: a request is cloaked among the records of its window.
-- context: state, dim (index of the time dimension), d ({x0, w, integral}), size (the window, in the
-- dimension's unit)
UPDATE `sqlanon_0a1b2c3d_cs0` SET wi = (CASE WHEN d1 IS NULL THEN -1
      WHEN d1 < floor(? + (CAST(floor((d1 - ?) / ?) AS BIGINT)) * ?) THEN CAST(floor((d1 - ?) / ?) AS BIGINT) - 1
      WHEN d1 >= floor(? + (CAST(floor((d1 - ?) / ?) AS BIGINT) + 1) * ?) THEN CAST(floor((d1 - ?) / ?) AS BIGINT) + 1
      ELSE CAST(floor((d1 - ?) / ?) AS BIGINT) END)
-- bind parameters: [1709251200000000.0, 1709251200000000.0, 3600000000.0, 3600000000.0, 1709251200000000.0, 3600000000.0, 1709251200000000.0, 1709251200000000.0, 3600000000.0, 3600000000.0, 1709251200000000.0, 3600000000.0, 1709251200000000.0, 3600000000.0]
