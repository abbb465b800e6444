module animalstore

go 1.19
