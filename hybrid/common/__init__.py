"""What every stage uses: errors, option ranges, configs, precision, output directories, the token draw."""
