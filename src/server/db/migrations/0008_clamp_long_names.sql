-- Names were unbounded before (issue 11, finding 9): a 300 kB name made every session answer too
-- large for the browser. New names are limited to 100 characters; existing ones are cut to fit.
UPDATE "users" SET "name" = left("name", 100) WHERE length("name") > 100;
